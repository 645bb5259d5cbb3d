fn helper() {}
fn main() {
    init();
}
