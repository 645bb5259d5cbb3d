fn usage() {
    let text = r#"
}
say "{" and {
"#;
    println!("{}", text);
    run(4);
}

fn other() {
    run(2);
    run(3);
}
