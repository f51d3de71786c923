// 64-bit atomics and 64-bit integer arithmetic (shifts, multiplies, compares).
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
kernel void atomics64(global long *a, global ulong *u, long s) {
    size_t i = get_global_id(0);
    atom_add(&a[0], a[i] << 3);
    atom_max(&a[1], a[i] >> 2);
    atom_cmpxchg(&u[0], u[i], u[i] >> 7);
    u[i] = (u[i] * 0x9e3779b97f4a7c15UL) ^ (ulong)(s + a[i]);
}
