// 64-bit integers and bit builtins: mul_hi, popcount, clz, rotate, 64-bit shifts.
kernel void int64(global long *a, global ulong *u, global uint *b) {
    size_t i = get_global_id(0);
    long x = a[i];
    ulong y = u[i];
    a[i] = x * (long)y + (x >> 7) - (x << 13) + mul_hi(x, 12345L);
    u[i] = y / 3 + rotate(y, (ulong)5) + (ulong)popcount(y);
    b[i] = clz(b[i]) + mul_hi(b[i], 0x9e3779b9u) + popcount(b[i]) + rotate(b[i], 3u);
}
