// Local (shared) memory with barriers: reductions, scans, a tile transpose, local atomics.

__kernel void local_reduce(__global const int *a, __global int *out) {
    __local int tmp[64];
    size_t l = get_local_id(0);
    tmp[l] = a[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (l < s) tmp[l] += tmp[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) out[get_group_id(0)] = tmp[0];
}

__kernel void local_param_reduce(__global const uint *a, __global uint *out, __local uint *scratch) {
    size_t l = get_local_id(0), n = get_local_size(0);
    scratch[l] = a[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = n / 2; s > 0; s >>= 1) {
        if (l < s) scratch[l] = max(scratch[l], scratch[l + s]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) out[get_group_id(0)] = scratch[0];
}

__kernel void local_reverse(__global const int *a, __global int *out) {
    __local int tmp[32];
    size_t l = get_local_id(0), n = get_local_size(0);
    tmp[l] = a[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tmp[n - 1 - l];
}

__kernel void local_scan(__global const uint *a, __global uint *out) {
    __local uint buf[2][64];
    size_t l = get_local_id(0), n = get_local_size(0);
    int cur = 0;
    buf[0][l] = a[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t off = 1; off < n; off <<= 1) {
        uint v = buf[cur][l];
        if (l >= off) v += buf[cur][l - off];
        buf[1 - cur][l] = v;
        cur = 1 - cur;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(0)] = buf[cur][l];
}

__kernel void local_transpose(__global const float *a, __global float *out, int width) {
    __local float tile[16][17];
    size_t lx = get_local_id(0), ly = get_local_id(1);
    size_t gx = get_global_id(0), gy = get_global_id(1);
    tile[ly][lx] = a[gy * width + gx];
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t ox = get_group_id(1) * 16 + lx, oy = get_group_id(0) * 16 + ly;
    out[oy * get_global_size(1) + ox] = tile[lx][ly];
}

__kernel void local_histogram(__global const uint *a, __global uint *out) {
    __local uint bins[16];
    size_t l = get_local_id(0);
    if (l < 16) bins[l] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(&bins[a[get_global_id(0)] & 15u]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < 16) out[get_group_id(0) * 16 + l] = bins[l];
}

__kernel void local_atomic_ops(__global const int *a, __global int *out) {
    __local int acc[4];
    size_t l = get_local_id(0);
    if (l == 0) {
        acc[0] = 0;
        acc[1] = 0x7fffffff;
        acc[2] = -0x7fffffff;
        acc[3] = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int x = a[get_global_id(0)];
    atomic_add(&acc[0], x >> 4);
    atomic_min(&acc[1], x);
    atomic_max(&acc[2], x);
    atomic_xor(&acc[3], x);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < 4) out[get_group_id(0) * 4 + l] = acc[l];
}
