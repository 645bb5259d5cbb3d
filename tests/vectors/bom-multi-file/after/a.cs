using B;
class C {}
