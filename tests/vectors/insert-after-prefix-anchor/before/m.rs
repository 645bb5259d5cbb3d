fn helper() {}
fn main() {
}
