// trace_error is header-only; this file anchors the ndr_trace library until its sources land.
#include "trace/trace.h"
