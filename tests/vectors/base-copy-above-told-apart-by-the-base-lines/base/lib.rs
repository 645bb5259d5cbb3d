// header
fn a() {
    run(1);
}
