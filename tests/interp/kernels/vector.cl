// Vector types: int4/float4 loads and stores, swizzles, vload/vstore, byte packing, the
// packed dot product.
#pragma OPENCL FP_CONTRACT OFF

__kernel void int4_ops(__global const int4 *a, __global const int4 *b, __global int4 *out) {
    size_t i = get_global_id(0);
    int4 x = a[i], y = b[i];
    out[2 * i + 0] = x + y * (int4)(1, 2, 3, 4);
    out[2 * i + 1] = (x > y) ? x.wzyx : y.yxwz;
}

__kernel void float4_ops(__global const float4 *a, __global const float4 *b, __global float4 *out) {
    size_t i = get_global_id(0);
    float4 x = a[i], y = b[i];
    out[2 * i + 0] = x * y - (float4)(0.5f);
    out[2 * i + 1] = fmax(x, y.zwxy) + x.xxyy;
}

__kernel void vload_vstore(__global const float *a, __global float *out) {
    size_t i = get_global_id(0);
    float3 v = vload3(i, a);
    float2 w = vload2(i, a + 100);
    vstore3(v.zxy + (float3)(w.x, w.y, 1.0f), i, out);
}

__kernel void uchar4_pack(__global const uchar4 *a, __global uint *out, __global uchar4 *out4) {
    size_t i = get_global_id(0);
    uchar4 c = a[i];
    out[i] = (uint)c.x | ((uint)c.y << 8) | ((uint)c.z << 16) | ((uint)c.w << 24);
    out4[i] = c.wzyx + (uchar4)(1);
}

__kernel void short8_ops(__global const short8 *a, __global short8 *out) {
    size_t i = get_global_id(0);
    short8 x = a[i];
    out[i] = (x >> (short8)(1)) + x.s76543210 - (short8)(3);
}

__kernel void dot_bytes(__global const char4 *a, __global const char4 *b, __global int *out) {
    size_t i = get_global_id(0);
    int4 x = convert_int4(a[i]), y = convert_int4(b[i]);
    out[i] = x.x * y.x + x.y * y.y + x.z * y.z + x.w * y.w;
}
