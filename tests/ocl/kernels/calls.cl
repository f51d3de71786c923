// Function calls: an inlined helper, a noinline subroutine and a recursive stack call.
__attribute__((noinline)) int helper(int x, int y) { return x * y + (x ^ y); }
__attribute__((noinline)) int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
static inline int tiny(int x) { return x + 1; }
kernel void calls(global int *a) {
    size_t i = get_global_id(0);
    a[i] = helper(a[i], tiny(a[i + 1])) + fact(a[i] & 7);
}
