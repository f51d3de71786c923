// Library math: pow, atan2, hypot, fma, clamp, mix, select, isnan, sign.
kernel void math_builtins(global float *a, global const float *b) {
    size_t i = get_global_id(0);
    float x = a[i], y = b[i];
    float r = pow(fabs(x), 1.5f) + atan2(y, x) + hypot(x, y) + fma(x, y, 1.0f);
    r += clamp(x, -2.0f, 2.0f) + mix(x, y, 0.25f) + sign(y);
    a[i] = isnan(r) ? 0.0f : select(r, -r, (int)(x > y));
}
