select * from matchpath(on (select * from f) f distribute by n sort by d arg1('A.B+'), arg2('A'), arg3(x > 1), arg4('n, size(tpath)'))
