// Builtin families: common, geometric, integer, relational, math in float, half and 64-bit
// integers (fp64 where the device has it: double.cl).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void float_families(global const float4 *a, global const float4 *b, global float4 *out) {
    size_t i = get_global_id(0);
    float4 x = a[i], y = b[i];
    float4 r = clamp(x, -1.0f, 1.0f) + mix(x, y, 0.25f) + step(0.5f, x) + smoothstep(0.0f, 1.0f, y);
    r += (float4)(dot(x, y), length(x), distance(x, y), fast_length(y));
    r += normalize(y) + cross(x, y);
    r += native_sin(x) + half_cos(y) + native_recip(y + 2.0f) + rsqrt(fabs(y) + 1.0f);
    r += fma(x, y, 1.0f) + fmin(x, y) + copysign(x, y) + floor(x) + round(y) + trunc(x);
    r += select(x, y, isgreater(x, y)) + (float4)(signbit(x.x), isnan(y.y), isinf(x.z), 0.0f);
    out[i] = r;
}

kernel void half_families(global const half *a, global half *out) {
    size_t i = get_global_id(0);
    half x = a[i];
    half r = x * x + (half)1.5f;
    r = fmax(r, (half)0.0f) + sqrt(fabs(x)) + exp(x / (half)8.0f);
    out[i] = r + convert_half(vload_half(i, (const global half *)a));
}

kernel void integer_families(global const long *a, global const int *b, global long *out) {
    size_t i = get_global_id(0);
    long x = a[i];
    int y = b[i];
    long r = mul_hi(x, (long)y) + abs_diff(x, (long)7) + rotate(x, (long)(y & 63)) + popcount(x);
    r += clz(x) + ctz(y) + mad_sat(y, y, y) + upsample((int)x, (uint)y) + hadd(x, (long)y);
    r += add_sat((int)x, y) + sub_sat((short)y, (short)3) + mad24(y, y, 1) + mul24(y, 3);
    out[i] = r + (x > 0 ? x / (y | 1) : x % (y | 1));
}
