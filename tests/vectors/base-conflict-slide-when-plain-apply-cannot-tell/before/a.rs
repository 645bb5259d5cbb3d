fn a() {
}
fn z() {
}
