// Conversions between integer widths, signedness and float, saturating and bit casts.
kernel void conversions(global float *f, global int *i32, global uchar *u8, global short *s16,
                        global long *i64) {
    size_t i = get_global_id(0);
    float x = f[i];
    int n = i32[i];
    u8[i] = convert_uchar_sat(n);
    s16[i] = convert_short_sat_rte(x * 3.0f);
    i64[i] = (long)n * 1000000007L + convert_long(x);
    f[i] = convert_float(n) + as_float(n & 0x3f800000) + (float)u8[i + 1];
    i32[i] = convert_int_rtz(x) + as_int(x) + (int)s16[i + 1];
}
