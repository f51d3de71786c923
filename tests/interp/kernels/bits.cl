// Bit operations and shifts: and/or/xor/not, the three-input forms Intel folds into bfn,
// shifts by amounts beyond the width (OpenCL C takes them modulo the width), rotates,
// popcount, clz, bit fields.

__kernel void logic_ops(__global const uint *a, __global const uint *b, __global const uint *c, __global uint *out) {
    size_t i = get_global_id(0);
    uint x = a[i], y = b[i], z = c[i];
    out[5 * i + 0] = x & y;
    out[5 * i + 1] = x | ~y;
    out[5 * i + 2] = x ^ y ^ z;
    out[5 * i + 3] = (x & y) | (~x & z);
    out[5 * i + 4] = (x | y) & (z ^ 0x0f0f0f0fu);
}

__kernel void shifts(__global const uint *a, __global const uint *b, __global uint *out) {
    size_t i = get_global_id(0);
    uint x = a[i], n = b[i];
    out[4 * i + 0] = x << n;
    out[4 * i + 1] = x >> n;
    out[4 * i + 2] = (uint)((int)x >> n);
    out[4 * i + 3] = (x << 3) | (x >> 29);
}

__kernel void rotates(__global const uint *a, __global const uint *b, __global uint *out) {
    size_t i = get_global_id(0);
    out[2 * i + 0] = rotate(a[i], b[i]);
    out[2 * i + 1] = rotate(a[i], 32u - (b[i] & 31u));
}

__kernel void bit_counts(__global const uint *a, __global uint *out) {
    size_t i = get_global_id(0);
    uint x = a[i];
    out[3 * i + 0] = popcount(x);
    out[3 * i + 1] = clz(x);
    out[3 * i + 2] = clz(x & 0xffffu) + popcount(~x);
}

__kernel void bit_fields(__global const uint *a, __global const uint *b, __global uint *out) {
    size_t i = get_global_id(0);
    uint x = a[i], y = b[i];
    uint field = (x >> 5) & 0x3ffu;
    uint mask = 0x3f80u;
    out[3 * i + 0] = field;
    out[3 * i + 1] = (x & ~mask) | ((y << 7) & mask);
    out[3 * i + 2] = (uint)(((int)(x << 4)) >> 24);
}

__kernel void bool_preds(__global const int *a, __global const int *b, __global int *out) {
    size_t i = get_global_id(0);
    int x = a[i], y = b[i];
    bool p = x > y, q = (x & 1) == 0, r = y < 0;
    out[3 * i + 0] = (p && q) || r;
    out[3 * i + 1] = (p != q) ? x : y;
    out[3 * i + 2] = (p ^ r) + 2 * (q | r) + 4 * !p;
}
