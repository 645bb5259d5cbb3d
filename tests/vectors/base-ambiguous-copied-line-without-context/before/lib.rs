fn a() {
    run(1);
}
fn b() {
    run(1);
}
