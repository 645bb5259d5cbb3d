fn a() {
    new();
}

fn c() {}
