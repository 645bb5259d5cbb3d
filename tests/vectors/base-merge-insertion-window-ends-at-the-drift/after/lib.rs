fn a() {
    new();
}

fn b() {
    x();
}

fn c() {}
