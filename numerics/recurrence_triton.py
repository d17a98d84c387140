"""Triton kernel of the fused recurrence (see numerics/recurrence_kernels.py, which launches it):
one program runs one chunk of time of one batch row over BN channels, tile by tile.

Paper O eq. (2), x_k = λ ⊙ x_{k−1} + u_k, on real and imaginary parts held separately.
"""

import triton
import triton.language as tl


@triton.jit
def combine(ar1, ai1, xr1, xi1, ar2, ai2, xr2, xi2):
    # (a₁, x₁) followed by (a₂, x₂): x = a₂x₁ + x₂, a = a₂a₁ (complex, parts separate)
    return (ar2 * ar1 - ai2 * ai1, ar2 * ai1 + ai2 * ar1,
            ar2 * xr1 - ai2 * xi1 + xr2, ar2 * xi1 + ai2 * xr1 + xi2)


@triton.jit
def chunk_kernel(u_ptr, s_ptr, b_ptr, lam_ptr, init_ptr, out_ptr, end_ptr,
                 length, n, chunk, su_b, su_t, ss_b, ss_t, so_b, so_t, si_b, si_c, se_b, se_c,
                 FACTORED: tl.constexpr, HAS_INIT: tl.constexpr, STORE_STATES: tl.constexpr,
                 STORE_END: tl.constexpr, TT: tl.constexpr, BN: tl.constexpr):
    # u_k = u[b, k] (dense), or u_k = b_vec · s[b, k] formed in registers (FACTORED: real s, complex
    # b_vec), which reads 8 bytes per step instead of 16 per step and channel
    pid_n = tl.program_id(0)
    c = tl.program_id(1)
    b = tl.program_id(2).to(tl.int64)
    cols = pid_n * BN + tl.arange(0, BN)
    cmask = cols < n
    lr = tl.load(lam_ptr + 2 * cols, mask=cmask, other=0.0)
    li = tl.load(lam_ptr + 2 * cols + 1, mask=cmask, other=0.0)
    if HAS_INIT:
        ip = init_ptr + b * si_b + c.to(tl.int64) * si_c + 2 * cols
        hr = tl.load(ip, mask=cmask, other=0.0)
        hi = tl.load(ip + 1, mask=cmask, other=0.0)
    else:
        hr = tl.zeros_like(lr)
        hi = tl.zeros_like(li)
    if FACTORED:
        br = tl.load(b_ptr + 2 * cols, mask=cmask, other=0.0)
        bi = tl.load(b_ptr + 2 * cols + 1, mask=cmask, other=0.0)
    ar = tl.broadcast_to(lr[None, :], (TT, BN))
    ai = tl.broadcast_to(li[None, :], (TT, BN))
    rows = tl.arange(0, TT)
    t0 = c * chunk
    t1 = tl.minimum(t0 + chunk, length)
    for k in range(0, chunk, TT):  # the last chunk's tiles past the end are masked out
        t = t0 + k + rows
        m = (t < t1)[:, None] & cmask[None, :]
        if FACTORED:
            sv = tl.load(s_ptr + b * ss_b + t.to(tl.int64) * ss_t, mask=t < t1, other=0.0)
            xr = tl.where(m, sv[:, None] * br[None, :], 0.0)
            xi = tl.where(m, sv[:, None] * bi[None, :], 0.0)
        else:
            off = b * su_b + t.to(tl.int64)[:, None] * su_t + 2 * cols[None, :]
            xr = tl.load(u_ptr + off, mask=m, other=0.0)
            xi = tl.load(u_ptr + off + 1, mask=m, other=0.0)
        pr, pi, sr, si = tl.associative_scan((ar, ai, xr, xi), 0, combine)
        yr = sr + pr * hr[None, :] - pi * hi[None, :]
        yi = si + pr * hi[None, :] + pi * hr[None, :]
        if STORE_STATES:
            oo = b * so_b + t.to(tl.int64)[:, None] * so_t + 2 * cols[None, :]
            tl.store(out_ptr + oo, yr, mask=m)
            tl.store(out_ptr + oo + 1, yi, mask=m)
        last = (t == tl.minimum(t0 + k + TT, t1) - 1)[:, None]
        live = t0 + k < t1
        hr = tl.where(live, tl.sum(tl.where(last, yr, 0.0), axis=0), hr)
        hi = tl.where(live, tl.sum(tl.where(last, yi, 0.0), axis=0), hi)
    if STORE_END:
        ep = end_ptr + b * se_b + c.to(tl.int64) * se_c + 2 * cols
        tl.store(ep, hr, mask=cmask)
        tl.store(ep + 1, hi, mask=cmask)
