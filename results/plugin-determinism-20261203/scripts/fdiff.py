import sys
def rd(p):
    d={}
    for l in open(p):
        if l.startswith('#') or l.startswith('function\t'): continue
        w=l.rstrip('\n').split('\t'); d[w[0]]=[int(x) for x in w[1:]]
    return d
a,b=rd(sys.argv[1]),rd(sys.argv[2])
rows=[]
for k in set(a)|set(b):
    x=a.get(k,[0]*4); y=b.get(k,[0]*4)
    if x!=y: rows.append((abs(y[0]-x[0])+abs(y[1]-x[1]),k,x,y))
rows.sort(reverse=True)
print(len(rows),"functions differ of",len(set(a)|set(b)))
for r in rows[:int(sys.argv[3]) if len(sys.argv)>3 else 25]: print(r[1],r[2],r[3])
