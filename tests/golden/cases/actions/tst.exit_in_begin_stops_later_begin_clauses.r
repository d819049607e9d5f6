first
second
end

