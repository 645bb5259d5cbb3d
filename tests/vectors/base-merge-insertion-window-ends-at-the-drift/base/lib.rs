fn a() {
    old();
}

fn c() {}
