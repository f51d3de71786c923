// Structured and unstructured control flow: loops, nested branches, switch, early exit.
kernel void control_flow(global int *a, int n) {
    size_t i = get_global_id(0);
    int acc = 0;
    for (int j = 0; j < n; ++j) {
        if (a[j] < 0)
            continue;
        if (a[j] > 1000)
            break;
        acc += a[j] * j;
    }
    switch (a[i] & 3) {
    case 0: acc += 1; break;
    case 1: acc *= 3; break;
    case 2: acc -= 7; break;
    default: acc = -acc;
    }
    if (acc == 42)
        return;
    while (acc > 100)
        acc /= 2;
    a[i] = acc;
}
