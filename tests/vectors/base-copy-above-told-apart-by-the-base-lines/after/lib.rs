fn b() {
    run(1);
}
// header
fn a() {
    run(2);
}
