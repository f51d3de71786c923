// Global atomics whose final values do not depend on the order the work-items run in.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

__kernel void global_atomic_add(__global const uint *a, __global uint *sum) {
    atomic_add(&sum[get_global_id(0) & 3], a[get_global_id(0)]);
}

__kernel void global_atomic_minmax(__global const int *a, __global int *res) {
    int x = a[get_global_id(0)];
    atomic_min(&res[0], x);
    atomic_max(&res[1], x);
    atomic_min((__global uint *)&res[2], (uint)x);
    atomic_max((__global uint *)&res[3], (uint)x);
}

__kernel void global_atomic_bits(__global const uint *a, __global uint *res) {
    uint x = a[get_global_id(0)];
    atomic_or(&res[0], x & 0x01010101u);
    atomic_and(&res[1], x | 0x10000000u);
    atomic_xor(&res[2], x);
    atomic_sub(&res[3], x & 0xffu);
}

__kernel void global_histogram(__global const uint *a, __global uint *bins) {
    uint x = a[get_global_id(0)];
    atomic_inc(&bins[x % 32u]);
    if (x & 1u) atomic_dec(&bins[32]);
}

__kernel void global_cmpxchg_max(__global const uint *a, __global uint *res) {
    uint x = a[get_global_id(0)] >> 4;
    uint old = res[0];
    while (old < x) {
        uint seen = atomic_cmpxchg(&res[0], old, x);
        if (seen == old) break;
        old = seen;
    }
}

__kernel void global_atomic_u64(__global const ulong *a, __global ulong *res) {
    ulong x = a[get_global_id(0)];
    atom_add(&res[0], x >> 8);
    atom_xor(&res[1], x);
}
