// Integer arithmetic: add, sub, mul, div, rem, shifts, bit operations, min/max, abs.
kernel void arith_int(global int *a, global const int *b, global uint *u, int k) {
    size_t i = get_global_id(0);
    int x = a[i], y = b[i] | 1;
    uint ux = u[i];
    a[i] = (x + y) * k - (x / y) + (x % y) + (x << 3) + (x >> 2) + (ux >> 5);
    u[i] = (ux & 0xff00ff) ^ (ux | 7) ^ ~ux ^ min(ux, 9u) ^ max(ux, 3u) ^ abs(x) ^ (ux * 13u);
}
