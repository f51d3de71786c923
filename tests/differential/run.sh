#!/usr/bin/env bash
# The large differential run of `visa check` against Intel's verifier (docs/conformance.md,
# "The large run").
#
#   tests/differential/run.sh [CASES] [SEED]        (defaults: 20000 cases, seed 7)
#
# 1. compiles our OpenCL kernels (tests/ocl/kernels/*.cl) with Intel's compiler for tgllp,
#    acm-g10 and pvc (`intel-isa ocl`, into $VISA_DIFF_WORK, default /tmp/visa-diff-work);
# 2. generates the crate of the current family with the full-corpus tests;
# 3. checks that every file Intel wrote checks clean (family/tests/verifier_valid.rs);
# 4. runs family/tests/verifier_differential.rs over those files and ../shared/real-kernels/dg2
#    with CASES single-byte changes, VISA_DIFF_JOBS (default 2) GenX_IR processes at a time,
#    and prints the confusion table with every class of disagreement; it fails below
#    VISA_DIFF_MIN percent agreement where Intel's reader does not crash (default 97.7), or
#    below VISA_DIFF_MIN_WRITTEN percent on the cases Intel reads as written (its print,
#    assembled back by Intel, gives the bytes of the file: default 99.9).
# Needs ../shared beside the repository and Intel's tools (apt-get install -y libigc-tools
# intel-opencl-icd). Takes about a minute per 4,000 cases on an idle 2-core machine.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
shared=$(cd "$repo/../shared" && pwd)
cases=${1:-20000}; seed=${2:-7}
work=${VISA_DIFF_WORK:-/tmp/visa-diff-work}
mkdir -p "$work"
export INTEL_ISA_WORK="$work/intel-isa"
for dev in tgllp acm-g10 pvc; do
  out="$work/isa/$dev"
  if [ ! -d "$out" ]; then
    mkdir -p "$out.tmp"
    for cl in "$repo"/tests/ocl/kernels/*.cl; do
      # A kernel the device cannot run (double.cl on tgllp, which has no fp64) is left out.
      "$shared/tools/intel-isa/intel-isa" ocl "$cl" "$dev" "$out.tmp" >/dev/null 2>&1 \
        || echo "note: Intel's compiler refuses $(basename "$cl") for $dev; left out"
    done
    # A file Intel's own verifier rejects is no valid file to mutate (ocloc writes DPAS for
    # tgllp, which GenX_IR then calls "not supported on this platform"): left out.
    case $dev in tgllp) p=TGLLP;; acm-g10) p=DG2;; pvc) p=PVC;; esac
    for isa in "$out.tmp"/*.isa; do
      if ! "$shared/tools/intel-isa/intel-isa" read "$isa" "$p" >/dev/null 2>&1; then
        echo "note: Intel's verifier rejects $(basename "$isa") for $dev; left out"
        rm -f "$isa"
      fi
    done
    mv "$out.tmp" "$out"
  fi
done
crate="$work/visa-current"
(cd "$repo" && cargo xtask regen --spec ../shared/visa-docs/current/instructions --errata errata --out "$crate" >/dev/null)
mkdir -p "$crate/tests" && cp -r "$repo/family/tests/." "$crate/tests/"
export VISA_SHARED="$shared" VISA_REPO="$repo"
export VISA_VALID_DIRS="$work/isa/tgllp=TGLLP:$work/isa/acm-g10=XEHP:$work/isa/pvc=PVC"
export VISA_DIFF_DIRS="$work/isa/tgllp=TGLLP:$work/isa/acm-g10=DG2:$work/isa/pvc=PVC"
cargo test --release --manifest-path "$crate/Cargo.toml" --test verifier_valid -- --nocapture
VISA_DIFF_CASES=$cases VISA_DIFF_SEED=$seed VISA_DIFF_MIN=${VISA_DIFF_MIN:-97.7} VISA_DIFF_MIN_WRITTEN=${VISA_DIFF_MIN_WRITTEN:-99.9} \
  cargo test --release --manifest-path "$crate/Cargo.toml" --test verifier_differential -- --nocapture
