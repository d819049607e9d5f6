first
end

