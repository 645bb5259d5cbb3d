void usage()
{
    const char* text = R"js(
}
if (x) { ")" }
)js";
    run(4);
}

void other()
{
    run(2);
    run(3);
}
