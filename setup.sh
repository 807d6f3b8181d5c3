#!/usr/bin/env bash
# ndrsim setup: installs every Debian package the project needs (idempotent), builds in
# Release, then runs the requested job.
#   bash setup.sh run    # install, build, run the main job: replay traces/default.jsonl
#   bash setup.sh test   # install, build, run the whole test suite with ctest
#   bash setup.sh build  # install and build only
set -euo pipefail
cd "$(dirname "$0")"

# The one list of Debian packages ndrsim needs.
# libsqlite3-dev: sweep results database; sqlite3: its shell; python3-matplotlib: ndrsim plot;
# slurm-wlm: the sweep's Slurm backend, tested on a single-node cluster on localhost.
# tshark lets the capture test decode ndrsim's pcap files with Wireshark's InfiniBand dissector.
# verilator: the RTL equivalence tests (tests/rtl); yosys: the RTL synthesis check (rtl.synth);
# zlib1g-dev: Verilator's FST waveform writer (--trace-fst, `ndrsim verify --wave`) links zlib.
PACKAGES=(build-essential cmake ninja-build ccache pkg-config python3
  libsystemc-dev verilator catch2 libfmt-dev libyaml-cpp-dev nlohmann-json3-dev libcli11-dev
  tshark libsqlite3-dev sqlite3 python3-matplotlib slurm-wlm yosys zlib1g-dev)

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

job=${1:-run}
install_packages
build
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
case "$job" in
  run)   ./build/ndrsim run traces/default.jsonl --out out/default ;;
  test)  ctest --test-dir build --output-on-failure -j "$(nproc)" ;;
  build) ;;
  *) echo "setup.sh: unknown job '$job' (expected run, test or build)" >&2; exit 2 ;;
esac
