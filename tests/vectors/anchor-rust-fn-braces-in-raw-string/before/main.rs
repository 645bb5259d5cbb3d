fn usage() {
    let text = r#"
}
say "{" and {
"#;
    println!("{}", text);
    run(2);
}

fn other() {
    run(2);
    run(3);
}
