fn a() {
}
