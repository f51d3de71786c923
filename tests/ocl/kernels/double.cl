// devices: skl pvc
// 64-bit floating point (the devices with cl_khr_fp64): arithmetic, conversions, math.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void double_float(global double *d, global float *f) {
    size_t i = get_global_id(0);
    double y = d[i] / d[i + 1] + sqrt(d[i + 2]);
    d[i] = fma(y, (double)f[i], floor(y));
    f[i] = (float)y;
}
