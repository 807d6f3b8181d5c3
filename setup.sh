#!/usr/bin/env bash
# ndrsim setup: installs every Debian package the project needs (idempotent), builds in
# Release, then runs the requested job.
#   bash setup.sh run    # install, build, run the main job: replay traces/default.jsonl
#   bash setup.sh test   # install, build, run the whole test suite with ctest, then the
#                        # sanitizer run of `asan` and the fuzz run of `fuzz` below
#   bash setup.sh build  # install and build only
#   bash setup.sh asan   # install, build with AddressSanitizer + UBSan (build-asan/), run the
#                        # unit, cycle, tlm and e2e tests there; any sanitizer report fails
#   bash setup.sh fuzz   # install, build the libFuzzer targets of the input parsers with clang
#                        # (build-fuzz/, tests/fuzz), run each over its seed and regression
#                        # corpus, then fuzz each for NDR_FUZZ_SECONDS (default 60); any
#                        # finding fails (docs/fuzzing.md)
set -euo pipefail
cd "$(dirname "$0")"

# The one list of Debian packages ndrsim needs.
# libsqlite3-dev: sweep results database; sqlite3: its shell; python3-matplotlib: ndrsim plot;
# slurm-wlm: the sweep's Slurm backend, tested on a single-node cluster on localhost.
# tshark lets the capture test decode ndrsim's pcap files with Wireshark's InfiniBand dissector.
# valgrind: the memcheck test of a normal run (tests/e2e/run_cli.cmake).
# verilator: the RTL equivalence tests (tests/rtl); yosys: the RTL synthesis check (rtl.synth);
# zlib1g-dev: Verilator's FST waveform writer (--trace-fst, `ndrsim verify --wave`) links zlib;
# `ndrsim import chakra` also reads gzipped .et files with it.
# libprotobuf-dev, protobuf-compiler: Chakra execution traces (`ndrsim import/export chakra`);
# python3-protobuf: the generator of the Chakra test files (tests/data/chakra/make_chakra.py).
# clang, libclang-rt-14-dev: the fuzz build (tests/fuzz): clang 14 and its libFuzzer, ASan and
# UBSan runtimes.
PACKAGES=(build-essential cmake ninja-build ccache pkg-config python3
  libsystemc-dev verilator catch2 libfmt-dev libyaml-cpp-dev nlohmann-json3-dev libcli11-dev
  tshark libsqlite3-dev sqlite3 python3-matplotlib slurm-wlm yosys zlib1g-dev valgrind
  clang libclang-rt-14-dev libprotobuf-dev protobuf-compiler python3-protobuf)

install_packages() {
  local missing=()
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "setup: installing ${missing[*]}"
  # tshark's package asks whether non-root users may capture; answer no, non-interactively.
  echo "wireshark-common wireshark-common/install-setuid boolean false" | $sudo debconf-set-selections
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

build() {
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build -j "$(nproc)"
}

# The sanitizer build: its own folder, RelWithDebInfo at -O1 -g1 (readable reports), no Verilated RTL
# (generated code; the RTL checks are covered by the Release run).
asan() {
  # -O1 -g1: line tables are all a sanitizer report needs, and they compile much faster than
  # -O2 -g (CI time). GCC's -Wmaybe-uninitialized gives false positives inside libstdc++'s
  # <regex> at -O1 with ASan, so it is off in this build only.
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNDR_SANITIZE=ON \
    -DNDR_RTL=OFF "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG -Wno-maybe-uninitialized" >/dev/null
  cmake --build build-asan -j "$(nproc)"
  # detect_leaks=0: libsystemc (not instrumented) keeps its kernel objects until exit.
  ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:detect_stack_use_after_return=0 \
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    ctest --test-dir build-asan --output-on-failure -j "$(nproc)" -L 'unit|cycle|tlm|e2e' \
    -LE 'rtl|slurm'
}

# The fuzz build: clang, libFuzzer + ASan + UBSan, its own folder; builds only the fuzz targets
# and the SystemC-free parser libraries they link. CTest runs each target over its corpus, then
# fuzzes the targets for NDR_FUZZ_SECONDS each, as many at a time as there are cores.
fuzz() {
  CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DNDR_FUZZ=ON >/dev/null
  cmake --build build-fuzz -j "$(nproc)"
  ctest --test-dir build-fuzz --output-on-failure -j "$(nproc)" -L fuzz
}

job=${1:-run}
install_packages
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
case "$job" in
  asan) asan; exit 0 ;;
  fuzz) fuzz; exit 0 ;;
esac
build
case "$job" in
  run)   ./build/ndrsim run traces/default.jsonl --out out/default ;;
  # The Release tests, then the sanitizer build's (issue 16: CI fails on any ASan/UBSan report),
  # then the fuzz targets' bounded run (any finding fails).
  test)  ctest --test-dir build --output-on-failure -j "$(nproc)"
         asan
         fuzz ;;
  build) ;;
  *) echo "setup.sh: unknown job '$job' (expected run, test, build, asan or fuzz)" >&2; exit 2 ;;
esac
