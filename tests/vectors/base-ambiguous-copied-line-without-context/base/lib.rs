fn a() {
    run(1);
}
