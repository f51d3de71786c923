// Control flow under SIMD divergence: per-work-item loop counts, if/else per lane, early
// return, break and continue, switch, nested branches.

__kernel void loop_divergent(__global const uint *a, __global uint *out) {
    size_t i = get_global_id(0);
    uint n = a[i] & 31u, acc = 1u;
    for (uint k = 0; k < n; k++) acc = acc * 3u + k;
    out[i] = acc;
}

__kernel void if_else(__global const int *a, __global int *out) {
    size_t i = get_global_id(0);
    int x = a[i], r;
    if (x & 1) {
        r = x * 3 + 1;
    } else if (x < 0) {
        r = -x;
    } else {
        r = x / 2;
    }
    out[i] = r;
}

__kernel void early_return(__global const int *a, __global int *out) {
    size_t i = get_global_id(0);
    int x = a[i];
    if (x < 0) return;
    out[i] = x + 1000;
    if (x > 1000) return;
    out[i] = 2 * x;
}

__kernel void while_break(__global const uint *a, __global uint *out) {
    size_t i = get_global_id(0);
    uint x = a[i] % 1000u + 1u, steps = 0;
    while (x != 1u) {
        x = (x & 1u) ? 3u * x + 1u : x >> 1;
        steps++;
        if (steps >= 200u) break;
    }
    out[i] = steps;
}

__kernel void loop_continue(__global const int *a, __global int *out) {
    size_t i = get_global_id(0);
    int x = a[i], acc = 0;
    for (int k = 0; k < 24; k++) {
        if (((x >> k) & 1) == 0) continue;
        acc += k * k;
        if (acc > 600) break;
    }
    out[i] = acc;
}

__kernel void switch_dense(__global const int *a, __global int *out) {
    size_t i = get_global_id(0);
    int r;
    switch (a[i] & 7) {
    case 0: r = 11; break;
    case 1: r = a[i] * 2; break;
    case 2: r = -5; break;
    case 3: r = a[i] >> 3; break;
    case 4: r = 44; break;
    case 5: r = a[i] ^ 0x55; break;
    default: r = 0;
    }
    out[i] = r;
}

__kernel void switch_sparse(__global const int *a, __global int *out) {
    size_t i = get_global_id(0);
    int r;
    switch (a[i] % 300) {
    case 1: r = 100; break;
    case 17: r = 200; break;
    case 100: r = 300; break;
    case 250: r = 400; break;
    case -3: r = 500; break;
    default: r = a[i] % 300;
    }
    out[i] = r;
}

__kernel void nested_branches(__global const int *a, __global const int *b, __global int *out) {
    size_t i = get_global_id(0);
    int x = a[i], y = b[i], r = 0;
    for (int k = 0; k < (x & 7); k++) {
        if ((y + k) & 1) {
            if (k > 3) r += y; else r -= k;
        } else {
            r ^= x + k;
        }
    }
    out[i] = r;
}
