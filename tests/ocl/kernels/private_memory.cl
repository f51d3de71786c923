// Private arrays with dynamic indexing, which may live in scratch memory.
kernel void private_memory(global int *a, int n) {
    int buf[64];
    size_t i = get_global_id(0);
    for (int j = 0; j < 64; ++j)
        buf[j] = a[(i + j) % 256] * j;
    int acc = 0;
    for (int j = 0; j < n; ++j)
        acc += buf[(a[j] + j) & 63];
    a[i] = acc;
}
