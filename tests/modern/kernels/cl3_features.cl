// OpenCL C 3.0 features: program-scope globals, generic pointers, C11 atomics, work-group
// collectives.
global int counter = 0;
global float table[4] = {1.0f, 2.0f, 4.0f, 8.0f};

static int twice(int *p) { return *p * 2; } // a generic pointer

kernel void globals_and_generic(global int *out, local int *tmp) {
    size_t i = get_global_id(0);
    int v = (int)i;
    tmp[get_local_id(0)] = twice(&v);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[i] = twice(&tmp[get_local_id(0)]) + (int)table[i % 4];
    atomic_fetch_add_explicit((volatile global atomic_int *)&counter, 1, memory_order_relaxed,
                              memory_scope_device);
}

kernel void c11_atomics(global atomic_int *a, global atomic_uint *u, global int *old) {
    size_t i = get_global_id(0);
    old[i] = atomic_fetch_max_explicit(a, (int)i, memory_order_acq_rel, memory_scope_work_group);
    atomic_fetch_or(u, 1u << (i % 32));
    int expected = 0;
    atomic_compare_exchange_strong(&a[1], &expected, (int)i);
    atomic_store_explicit(&a[2], (int)i, memory_order_release);
    old[i] += atomic_load_explicit(&a[3], memory_order_acquire);
}

kernel void collectives(global const int *in, global int *out) {
    size_t i = get_global_id(0);
    int x = in[i];
    int s = work_group_reduce_add(x);
    int m = work_group_scan_inclusive_max(x);
    int b = work_group_broadcast(x, 0);
    int any = work_group_any(x > 100);
    out[i] = s + m + b + any;
}
