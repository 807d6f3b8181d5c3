// libsystemc needs an sc_main; Catch2 provides main. Weak, so a test that defines its own (one
// that calls sc_start through SystemC's entry point) overrides it. Linked into every SystemC
// test (tests/CMakeLists.txt): with --as-needed a test that never touches SystemC may drop the
// library and not need this, but the sanitizer build keeps it.
extern "C" __attribute__((weak)) int sc_main(int /*argc*/, char* /*argv*/[]) {
    return 0;
}
