// Work-item functions, multiple work-groups, 2D and 3D ndranges.
#pragma OPENCL FP_CONTRACT OFF

__kernel void ids_1d(__global uint *out) {
    size_t i = get_global_id(0);
    out[4 * i + 0] = get_local_id(0);
    out[4 * i + 1] = get_group_id(0);
    out[4 * i + 2] = get_local_size(0) * 1000 + get_num_groups(0);
    out[4 * i + 3] = get_global_size(0);
}

__kernel void ids_2d(__global uint *out) {
    size_t x = get_global_id(0), y = get_global_id(1);
    size_t i = y * get_global_size(0) + x;
    out[2 * i + 0] = (get_group_id(1) << 24) | (get_group_id(0) << 16) | (get_local_id(1) << 8) | get_local_id(0);
    out[2 * i + 1] = get_work_dim() * 100 + get_num_groups(1) * 10 + get_num_groups(0);
}

__kernel void ids_3d(__global uint *out) {
    size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    size_t i = (z * get_global_size(1) + y) * get_global_size(0) + x;
    out[2 * i + 0] = (get_local_id(2) << 16) | (get_local_id(1) << 8) | get_local_id(0);
    out[2 * i + 1] = (get_group_id(2) << 16) | (get_group_id(1) << 8) | get_group_id(0);
}

__kernel void stencil_2d(__global const float *a, __global float *out) {
    int x = get_global_id(0), y = get_global_id(1);
    int w = get_global_size(0), h = get_global_size(1);
    float c = a[y * w + x];
    float l = a[y * w + max(x - 1, 0)], r = a[y * w + min(x + 1, w - 1)];
    float u = a[max(y - 1, 0) * w + x], d = a[min(y + 1, h - 1) * w + x];
    out[y * w + x] = c * 4.0f - l - r - u - d;
}

__kernel void matmul_int(__global const int *a, __global const int *b, __global int *c, int n) {
    int col = get_global_id(0), row = get_global_id(1);
    int acc = 0;
    for (int k = 0; k < n; k++) acc += a[row * n + k] * b[k * n + col];
    c[row * n + col] = acc;
}

__kernel void strided_gather(__global const uint *a, __global uint *out, uint stride) {
    size_t i = get_global_id(0);
    out[i] = a[(i * stride) % 1024u] + a[1023u - (i % 1024u)];
}
