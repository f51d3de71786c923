// 32-bit integer arithmetic: wrapping unsigned, signed on bounded inputs (signed overflow is
// undefined in OpenCL C), division and remainder (Intel emulates them), high halves, saturation.

__kernel void u32_wrap(__global const uint *a, __global const uint *b, __global uint *out) {
    size_t i = get_global_id(0);
    uint x = a[i], y = b[i];
    out[4 * i + 0] = x + y;
    out[4 * i + 1] = x - y;
    out[4 * i + 2] = x * y;
    out[4 * i + 3] = x * 3u + y * 5u + 7u;
}

__kernel void i32_bounded(__global const int *a, __global const int *b, __global int *out, int k) {
    size_t i = get_global_id(0);
    int x = a[i], y = b[i];
    out[4 * i + 0] = x * y - k;
    out[4 * i + 1] = -x + 2 * y;
    out[4 * i + 2] = x / ((y & 0xff) + 1);
    out[4 * i + 3] = x % ((y & 0xff) + 1);
}

__kernel void i32_div_signs(__global const int *a, __global const int *b, __global int *out) {
    size_t i = get_global_id(0);
    int x = a[i], y = b[i];
    if (y == 0) y = 7;
    out[2 * i + 0] = x / y;
    out[2 * i + 1] = x % y;
}

__kernel void u32_divrem(__global const uint *a, __global const uint *b, __global uint *out) {
    size_t i = get_global_id(0);
    uint x = a[i], y = b[i] | 1u;
    out[2 * i + 0] = x / y;
    out[2 * i + 1] = x % y;
}

__kernel void mul_high(__global const uint *a, __global const uint *b, __global uint *out) {
    size_t i = get_global_id(0);
    uint x = a[i], y = b[i];
    out[4 * i + 0] = mul_hi(x, y);
    out[4 * i + 1] = (uint)mul_hi((int)x, (int)y);
    out[4 * i + 2] = mad_hi(x, y, 12345u);
    out[4 * i + 3] = (uint)mad24((int)(x & 0x7fffff), (int)(y & 0x3ff), 99);
}

__kernel void add_three(__global const uint *a, __global const uint *b, __global const uint *c, __global uint *out) {
    size_t i = get_global_id(0);
    out[2 * i + 0] = a[i] + b[i] + c[i];
    out[2 * i + 1] = a[i] - b[i] + (c[i] << 1);
}

__kernel void sat_arith(__global const int *a, __global const int *b, __global int *out) {
    size_t i = get_global_id(0);
    int x = a[i], y = b[i];
    out[6 * i + 0] = add_sat(x, y);
    out[6 * i + 1] = sub_sat(x, y);
    out[6 * i + 2] = (int)add_sat((uint)x, (uint)y);
    out[6 * i + 3] = (int)sub_sat((uint)x, (uint)y);
    out[6 * i + 4] = hadd(x, y);
    out[6 * i + 5] = rhadd(x, y);
}

__kernel void minmax_abs(__global const int *a, __global const int *b, __global int *out) {
    size_t i = get_global_id(0);
    int x = a[i], y = b[i];
    out[6 * i + 0] = min(x, y);
    out[6 * i + 1] = max(x, y);
    out[6 * i + 2] = (int)min((uint)x, (uint)y);
    out[6 * i + 3] = (int)max((uint)x, (uint)y);
    out[6 * i + 4] = (int)abs(x);
    out[6 * i + 5] = clamp(x, -1000, 1000);
}

__kernel void small_ints(__global const uchar *a, __global const char *b, __global short *out, __global ushort *out2) {
    size_t i = get_global_id(0);
    uchar x = a[i];
    char y = b[i];
    out[i] = (short)(x * y - y);
    out2[i] = (ushort)(x + (uchar)y) * (ushort)3;
}
