// Global atomics: add, sub, min, max, and, or, xor, exchange, compare-exchange.
kernel void atomics_global(global int *c, global uint *u, global const int *v) {
    int x = v[get_global_id(0)];
    atomic_add(&c[0], x);
    atomic_sub(&c[1], x);
    atomic_min(&c[2], x);
    atomic_max(&c[3], x);
    atomic_and(&u[0], (uint)x);
    atomic_or(&u[1], (uint)x);
    atomic_xor(&u[2], (uint)x);
    atomic_xchg(&c[4], x);
    atomic_cmpxchg(&c[5], 0, x);
    atomic_min(&u[3], (uint)x);
}
