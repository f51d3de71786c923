// The kernels `cargo xtask bench --anchors` runs on `visa run`, on Oclgrind and on pocl: ALU
// (matmul, mandelbrot, an integer hash), memory (a stencil), barriers (a reduction through local
// memory) and atomics (a histogram).

kernel void matmul(global const float *a, global const float *b, global float *c, int n) {
    int i = get_global_id(1), j = get_global_id(0);
    float s = 0.0f;
    for (int k = 0; k < n; k++)
        s += a[i * n + k] * b[k * n + j];
    c[i * n + j] = s;
}

kernel void mandelbrot(global int *out, int width, int height, int limit) {
    int x = get_global_id(0), y = get_global_id(1);
    float cr = -2.0f + 3.0f * x / width, ci = -1.25f + 2.5f * y / height;
    float zr = 0.0f, zi = 0.0f;
    int it = 0;
    while (it < limit && zr * zr + zi * zi < 4.0f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        it++;
    }
    out[y * width + x] = it;
}

kernel void xorshift(global uint *out, int rounds) {
    uint x = get_global_id(0) * 2654435761u + 1u;
    for (int r = 0; r < rounds; r++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
    }
    out[get_global_id(0)] = x;
}

kernel void stencil(global const int *in, global int *out, int width, int h) {
    int x = get_global_id(0), y = get_global_id(1);
    int xl = max(x - 1, 0), xr = min(x + 1, width - 1), yu = max(y - 1, 0), yd = min(y + 1, h - 1);
    out[y * width + x] = 4 * in[y * width + x] - in[y * width + xl] - in[y * width + xr]
                         - in[yu * width + x] - in[yd * width + x];
}

kernel void reduction(global const uint *in, global uint *out, local uint *tmp) {
    uint l = get_local_id(0);
    tmp[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (l < s)
            tmp[l] += tmp[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        out[get_group_id(0)] = tmp[0];
}

kernel void histogram(global const uint *in, global uint *bins) {
    atomic_inc(&bins[in[get_global_id(0)] & 63]);
}
