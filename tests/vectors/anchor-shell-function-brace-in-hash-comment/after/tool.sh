usage() {
    echo "usage: tool {start|stop}"
# old shells: exit 1; }
    run 4
}

other() {
    run 2
    run 3
}
