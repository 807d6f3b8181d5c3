// Anchors the ndr_collective library; the algorithms live in their own files.
#include "collective/schedule.h"
