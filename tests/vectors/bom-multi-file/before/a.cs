using A;
class C {}
