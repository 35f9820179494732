#!/usr/bin/env python3
"""resign_secret_example.py - re-signs the presigned PUT blocks of
image/k8s/secret-example.yaml with `ebsbench presign` when the files a run
writes change (k8s.bats checks the example's names are exactly presign's).
Signs offline with AWS's documented example key at a fixed time, so the
diff shows only what changed.  Run from the repository root after make."""
import json, re, subprocess, os, sys
p='image/k8s/secret-example.yaml'
lines=open(p).read().split('\n')
out=[];i=0
env=dict(os.environ, AWS_ACCESS_KEY_ID='AKIAIOSFODNN7EXAMPLE', AWS_SECRET_ACCESS_KEY='wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', EBSBENCH_PRESIGN_TIME='20260902T000000Z')
env.pop('AWS_SESSION_TOKEN', None)
while i < len(lines):
    l=lines[i]
    out.append(l)
    if l.strip()=='config.json: |':
        j=i+1; block=[]
        while j < len(lines) and (lines[j].startswith('    ') or lines[j]==''):
            if lines[j]=='' and (j+1>=len(lines) or not lines[j+1].startswith('    ')): break
            block.append(lines[j]); j+=1
        text='\n'.join(x[4:] for x in block)
        cfg=json.loads(text)
        put=cfg.get('upload',{}).get('put')
        if put:
            first=next(iter(put.values()))
            m=re.match(r'https://s3\.([^.]+)\.amazonaws\.com/([^/]+)/(.*)results\.json\?.*X-Amz-Expires=(\d+)', first)
            region,bucket,prefix,exp=m.groups()
            plan={k:v for k,v in cfg.items() if k!='upload'}
            open('/tmp/resign-plan.json','w').write(json.dumps(plan))
            r=subprocess.run(['./build/ebsbench','presign','--bucket',bucket,'--prefix',prefix,'--region',region,'--expires',str(int(exp)//3600)+'h','--plan','/tmp/resign-plan.json'],env=env,capture_output=True,text=True)
            if r.returncode: sys.exit(r.stderr)
            new=json.loads(r.stdout)['upload']
            old_expires=cfg['upload'].get('expires')
            cfg['upload']=new
            print(bucket,prefix,len(put),'->',len(new['put']), old_expires, new.get('expires'), file=sys.stderr)
            text=json.dumps(cfg, indent=2, ensure_ascii=False)
            block=['    '+x for x in text.split('\n')]
        out.extend(block)
        i=j; continue
    i+=1
open(p,'w').write('\n'.join(out))
