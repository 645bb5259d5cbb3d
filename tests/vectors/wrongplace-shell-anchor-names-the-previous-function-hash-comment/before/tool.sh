usage() {
    echo "usage: tool {start|stop}"
# old shells: exit 1; }
    run 2
}

other() {
    run 2
    run 3
}
