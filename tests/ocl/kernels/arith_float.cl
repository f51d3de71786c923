// Float arithmetic and the extended math of the ALU: mad, sqrt, rsqrt, exp, log, sin, cos.
kernel void arith_float(global float *a, global const float *b, float k) {
    size_t i = get_global_id(0);
    float x = a[i], y = b[i];
    float r = mad(x, y, k) + sqrt(fabs(x)) + native_rsqrt(y + 2.0f) + native_exp2(x) +
              native_log2(fabs(y) + 1.0f) + native_sin(x) * native_cos(y) - x / (y + 0.5f);
    a[i] = fmin(r, 100.0f) + fmax(x, -1.0f) + floor(y) + ceil(x) + trunc(r) + rint(y);
}
