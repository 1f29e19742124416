select * from noop(on noopwithmap(on t partition by a order by b desc) partition by a order by b) x
