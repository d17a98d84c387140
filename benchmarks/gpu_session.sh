#!/usr/bin/env bash
# The checks to run once on a lent CUDA machine, in one call of a few minutes: the `gpu`-marked tests,
# the fused kernel's tile sweep (tune_recurrence_kernel.py) and the recurrence benchmark on CUDA
# (bench_recurrence.py --device cuda). Each step runs under its own time limit, so a slow one cannot
# take the others' time; logs and a summary go to $OUT (default /tmp/recmem-gpu).
#
# That machine has python3 with torch, Triton, numpy, scipy, sympy, mpmath, hypothesis and pytest but
# no registry: recmem and what it lacks travel as wheels in .whl/ (ignored by git), made here by
#   python -m pip wheel --no-deps --no-build-isolation -w .whl .
#   python -m pip download --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
#       --platform manylinux2014_x86_64 -d .whl python-flint gmpy2 latex2mathml
# and the call carries .whl. Step limits in seconds: GPU_TESTS_S, TUNE_S, BENCH_S; BENCH_ARGS are
# added to the benchmark's arguments. On one H200 (docs/GPU.md) the tests took 31 s, the sweep 53 s
# and the benchmark's full grid about 8 minutes (B = 1 and 10 over 240 s, B = 100 and 1000 222 s):
# within one call of 10 minutes, give it a part, e.g. BENCH_ARGS='--batches 1 10'.
set -u
OUT=${OUT:-/tmp/recmem-gpu}
mkdir -p "$OUT"
: >"$OUT/summary.txt"  # this run's steps only (step appends to it)
export PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1
if compgen -G ".whl/*.whl" >/dev/null; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
        --target /tmp/recmem-site .whl/*.whl || exit 3
    export PYTHONPATH=/tmp/recmem-site PATH=/tmp/recmem-site/bin:$PATH
fi

{
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    python3 -c "import sys, torch; print(sys.version.split()[0], 'torch', torch.__version__, \
torch.cuda.is_available() and torch.cuda.get_device_name())"
    python3 -c "import triton; print('triton', triton.__version__)"
    python3 -c "import recmem.numerics, flint, mpmath; print('recmem from', recmem.numerics.__file__, \
'flint', flint.__version__, 'mpmath', mpmath.__version__, mpmath.libmp.BACKEND)"
} 2>&1 | tee "$OUT/env.txt"

step() {
    local name=$1 limit=$2 start rc
    shift 2
    start=$(date +%s)
    timeout -k 5 "$limit" "$@" >"$OUT/$name.log" 2>&1
    rc=$?
    echo "== $name: exit $rc after $(($(date +%s) - start)) s (limit $limit s)" | tee -a "$OUT/summary.txt"
    tail -n "${TAIL_LINES:-30}" "$OUT/$name.log"
}

# only the files that hold gpu tests are collected: the browser and cluster tests need packages that
# machine lacks (playwright, dask)
step gpu_tests "${GPU_TESTS_S:-150}" python3 -m pytest -m gpu -n 4 -q -rs \
    tests/test_linear_recurrence.py tests/test_backend_conformance.py tests/test_ode.py \
    tests/test_lyapunov_solvers.py tests/test_claims_w_stability.py tests/test_claims_w_theory.py \
    tests/test_claim_o_universality.py tests/test_reproduce_o.py
step tune "${TUNE_S:-170}" python3 benchmarks/tune_recurrence_kernel.py
# shellcheck disable=SC2086  # BENCH_ARGS is a list of arguments
step bench "${BENCH_S:-240}" python3 benchmarks/bench_recurrence.py --device cuda ${BENCH_ARGS:-}
nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv 2>&1 | tee -a "$OUT/summary.txt"
cat "$OUT/summary.txt"
