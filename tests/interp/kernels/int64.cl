// 64-bit integers: Intel splits them into 32-bit halves (addc, subb, mul pieces) where the
// platform lacks them.

__kernel void u64_arith(__global const ulong *a, __global const ulong *b, __global ulong *out) {
    size_t i = get_global_id(0);
    ulong x = a[i], y = b[i];
    out[4 * i + 0] = x + y;
    out[4 * i + 1] = x - y;
    out[4 * i + 2] = x * y;
    out[4 * i + 3] = mul_hi(x, y);
}

// The signed twin of u64_arith's mul_hi: IGC 2.40 writes the same instructions for both on
// Xe3P (nvl-p, cri) when the kernel also takes the low half (x * y), so no machine can get both
// right.
__kernel void i64_mul_hi(__global const long *a, __global const long *b, __global long *out) {
    size_t i = get_global_id(0);
    long x = a[i], y = b[i];
    out[2 * i + 0] = mul_hi(x, y);
    out[2 * i + 1] = x * y;
}

// mul_hi(ulong, ulong) without x * y beside it: on Xe3P, IGC 2.40 then multiplies unsigned
// high halves (`ud`), as it must; u64_arith's pair of low and high halves gets signed ones.
__kernel void u64_mul_hi(__global const ulong *a, __global const ulong *b, __global ulong *out) {
    size_t i = get_global_id(0);
    out[i] = mul_hi(a[i], b[i]);
}

__kernel void u64_shifts(__global const ulong *a, __global const uint *n, __global ulong *out) {
    size_t i = get_global_id(0);
    ulong x = a[i];
    uint s = n[i];
    out[4 * i + 0] = x << s;
    out[4 * i + 1] = x >> s;
    out[4 * i + 2] = (ulong)((long)x >> s);
    out[4 * i + 3] = rotate(x, (ulong)s);
}

__kernel void i64_compare(__global const long *a, __global const long *b, __global long *out) {
    size_t i = get_global_id(0);
    long x = a[i], y = b[i];
    out[4 * i + 0] = x < y ? x : y;
    out[4 * i + 1] = max(x, y);
    out[4 * i + 2] = (ulong)x > (ulong)y;
    out[4 * i + 3] = x == y ? 7 : (x > 0) - (x < 0);
}

__kernel void i64_divrem(__global const long *a, __global const long *b, __global long *out) {
    size_t i = get_global_id(0);
    long x = a[i], y = b[i];
    if (y == 0 || y == -1) y = 3;
    out[2 * i + 0] = x / y;
    out[2 * i + 1] = x % y;
}

__kernel void widen32to64(__global const int *a, __global const uint *b, __global long *out) {
    size_t i = get_global_id(0);
    out[3 * i + 0] = (long)a[i] * (long)b[i];
    out[3 * i + 1] = (long)a[i] + (long)b[i];
    out[3 * i + 2] = (long)(ulong)b[i] << 20;
}

__kernel void u64_bits(__global const ulong *a, __global ulong *out, __global int *narrow) {
    size_t i = get_global_id(0);
    ulong x = a[i];
    out[2 * i + 0] = popcount(x) + clz(x);
    out[2 * i + 1] = (x & 0xffff0000ffffull) | (~x & 0xf0f0f0f0f0f0f0f0ull);
    narrow[i] = (int)((uint)x + (uint)(x >> 32));
}
