// Conversions: float <-> int with truncation and each rounding mode, the saturating ones
// (out-of-range inputs clamp), narrowing and widening of small integer types.

__kernel void f32_to_int(__global const float *a, __global int *out, __global uint *uout) {
    size_t i = get_global_id(0);
    float x = a[i];
    out[4 * i + 0] = (int)x;
    out[4 * i + 1] = convert_int_rtn(x);
    out[4 * i + 2] = convert_int_rtp(x);
    out[4 * i + 3] = convert_int_rte(x);
    uout[i] = (uint)fabs(x);
}

__kernel void int_to_f32(__global const int *a, __global const uint *b, __global float *out) {
    size_t i = get_global_id(0);
    out[3 * i + 0] = (float)a[i];
    out[3 * i + 1] = (float)b[i];
    out[3 * i + 2] = (float)(a[i] >> 8) * 0.25f;
}

__kernel void sat_from_float(__global const float *a, __global int *out) {
    size_t i = get_global_id(0);
    float x = a[i];
    out[5 * i + 0] = convert_int_sat(x);
    out[5 * i + 1] = (int)convert_uint_sat(x);
    out[5 * i + 2] = convert_short_sat(x);
    out[5 * i + 3] = convert_uchar_sat(x);
    out[5 * i + 4] = convert_char_sat_rte(x);
}

__kernel void sat_from_int(__global const int *a, __global uchar *o8, __global char *os8, __global ushort *o16, __global short *os16) {
    size_t i = get_global_id(0);
    int x = a[i];
    o8[i] = convert_uchar_sat(x);
    os8[i] = convert_char_sat(x);
    o16[i] = convert_ushort_sat(x);
    os16[i] = convert_short_sat(x);
}

__kernel void widen_narrow(__global const char *a, __global const uchar *b, __global const short *c, __global int *out, __global char *narrow) {
    size_t i = get_global_id(0);
    out[3 * i + 0] = a[i];
    out[3 * i + 1] = b[i];
    out[3 * i + 2] = c[i];
    narrow[i] = (char)(c[i] + a[i]);
}

__kernel void reinterpret(__global const float *a, __global uint *out, __global float *fout) {
    size_t i = get_global_id(0);
    uint bits = as_uint(a[i]);
    out[i] = (bits >> 23) & 0xffu;
    fout[i] = as_float((bits & 0x807fffffu) | 0x3f800000u);
}
