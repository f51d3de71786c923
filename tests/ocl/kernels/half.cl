// 16-bit floating point: arithmetic, conversions, math.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void half_float(global half *h, global float *f) {
    size_t i = get_global_id(0);
    half x = h[i] * h[i + 1] + (half)1.5f;
    h[i] = fmax(x, (half)0.0f) / h[i + 2];
    f[i] = (float)x + sqrt((float)h[i + 3]);
}
