import sys, collections
sys.path.insert(0,'/work/wt-15/bench')
import attrib
def snap(path, k):
    out=None; cur=None
    with open(path) as f:
        n=0
        for line in f:
            if line.startswith('S '):
                n+=1
                if n==k: cur={}
            elif line.startswith('E '):
                if cur is not None: return cur
            elif cur is not None:
                w=line.split(); cur[(int(w[1],16),int(w[2],16),int(w[3]))]=int(w[4])
k=int(sys.argv[3])
a,b=snap(sys.argv[1],k),snap(sys.argv[2],k)
syms=attrib.Symbols('System.map.old', sys.argv[4])
fa=collections.Counter(); fb=collections.Counter()
for key,c in a.items(): fa[syms.name(key[0])]+=c*key[2]
for key,c in b.items(): fb[syms.name(key[0])]+=c*key[2]
rows=sorted(((fb[n]-fa[n],n,fa[n],fb[n]) for n in set(fa)|set(fb) if fa[n]!=fb[n]), key=lambda r:-abs(r[0]))
print(len(rows),'functions differ')
for r in rows[:40]: print(r)
