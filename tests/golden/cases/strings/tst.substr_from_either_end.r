world|ell|llo

