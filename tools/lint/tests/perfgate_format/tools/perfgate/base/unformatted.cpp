// A fixture: one line far past 120 columns, and braces where the style puts none.
int  far_too_long(int a,int b){ return a+b+a+b+a+b+a+b+a+b+a+b+a+b+a+b+a+b+a+b+a+b+a+b+a+b+a+b+a+b+a+b+a+b+a+b+a+b+a+b+a+b+a+b; }
